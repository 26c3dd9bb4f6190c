"""kou2023 claims (being written)."""
