"""dana2025 claims (being written)."""
