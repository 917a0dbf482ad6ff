"""The application layer: the command line and the request-level commands it calls."""
