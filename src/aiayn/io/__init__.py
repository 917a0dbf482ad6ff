"""Files that training and inference share: checkpoints (safetensors, atomic writes, averaging)."""
