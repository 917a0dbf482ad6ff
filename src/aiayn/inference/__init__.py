"""Using trained models: translate, generate, parse, and read attention weights (no training, no plots)."""
