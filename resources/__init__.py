"""Shipped resources (fonts, icons, desktop entry): a package for importlib.resources."""
