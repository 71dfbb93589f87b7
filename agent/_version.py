"""The package version (a leaf module, so any room can name it without importing the package API)."""

__version__ = "0.1.0"
