"""The scenario editor: forms generated from core's field specs, and the stage table."""
