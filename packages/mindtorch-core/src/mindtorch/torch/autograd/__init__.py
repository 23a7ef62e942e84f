"""torch.autograd on MindSpore's C++ tape (see DESIGN.md §3)."""
