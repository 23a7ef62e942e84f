"""mindtorch.torch.common: helpers the manual refers to (graph-mode-safe dtype groups)."""
