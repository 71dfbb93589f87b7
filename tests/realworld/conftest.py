"""Real-architecture tests need the `realworld` extra for the Hugging Face cases; run with HF offline."""
