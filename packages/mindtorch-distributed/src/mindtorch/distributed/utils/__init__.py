"""torch.utils.* pieces that belong to the distributed package."""
