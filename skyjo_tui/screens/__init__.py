"""The client's screens, one module each (``base``: what every screen shares)."""
