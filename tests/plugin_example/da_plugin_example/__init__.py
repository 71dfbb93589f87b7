"""An example debug-agent plug-in: a model whose output is multiplied by zero."""
