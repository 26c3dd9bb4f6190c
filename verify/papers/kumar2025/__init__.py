"""kumar2025 claims (being written)."""
