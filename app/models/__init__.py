"""Qt item models over core data (STYLE §7)."""
