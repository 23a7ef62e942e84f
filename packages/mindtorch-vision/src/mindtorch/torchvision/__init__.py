"""mindtorch.torchvision: torchvision 0.13's API (the release paired with torch 1.12) on mindtorch."""
__version__ = "0.13.1"
