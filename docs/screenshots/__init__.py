"""Screenshots the user guide shows."""
