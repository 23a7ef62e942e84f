"""mindtorch.torchaudio: torchaudio 0.12's API (the release paired with torch 1.12) on mindtorch."""
__version__ = "0.12.1"
