"""min2024 claims (being written)."""
