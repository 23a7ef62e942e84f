"""Convert tensors between real PyTorch, numpy and mindtorch: `to_mindtorch`, `to_torch`, `to_numpy`.

Zero-copy where the memory layout allows it (contiguous, numpy-representable dtypes): numpy arrays, PyTorch
CPU tensors and mindtorch tensors then share memory. bfloat16 (no numpy dtype) is converted through its bits.

Real PyTorch is imported lazily and never through mindtorch's import hook: when the hook maps `torch` to
mindtorch and real PyTorch is not loaded yet, `to_torch` refuses with an error that says how to proceed.
"""
from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

import mindspore as ms
import numpy as np

__all__ = ["to_mindtorch", "to_torch", "to_numpy", "is_torch_tensor"]


def is_torch_tensor(x: Any) -> bool:
    """Whether `x` is a real PyTorch tensor (checked without importing PyTorch)."""
    for cls in type(x).__mro__:
        if cls.__name__ == "Tensor" and cls.__module__ in ("torch", "torch._tensor"):
            return True
    return False


def _real_torch() -> ModuleType:
    mod = sys.modules.get("torch")
    if mod is not None and hasattr(mod, "_C") and not getattr(mod, "__name__", "").startswith("mindtorch"):
        return mod
    from ._import_hook import is_enabled

    if is_enabled():
        raise RuntimeError(
            "to_torch: mindtorch's import hook maps `torch` to mindtorch, so real PyTorch cannot be imported. "
            "Import real PyTorch first (`from mindtorch.tools import pytorch_enable; import torch as pytorch`).")
    import torch  # real PyTorch: the hook is off

    if not hasattr(torch, "_C"):
        raise RuntimeError("to_torch: `import torch` did not give real PyTorch")
    return torch


def _bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def to_numpy(x: Any) -> np.ndarray:
    """numpy view (or copy when unavoidable) of a PyTorch tensor, mindtorch/MindSpore tensor or array-like.

    bfloat16 tensors come back as float32 arrays (exact).
    """
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, ms.Tensor):
        if x.dtype == ms.bfloat16:
            return ms.Tensor.asnumpy(x).astype(np.float32)
        return ms.Tensor.asnumpy(x)
    if is_torch_tensor(x):
        t = x.detach().cpu()
        if t.dtype == _real_torch().bfloat16:
            return _bf16_bits_to_f32(t.view(_real_torch().int16).numpy().view(np.uint16))
        return t.resolve_conj().numpy() if t.is_complex() else t.numpy()
    return np.asarray(x)


def to_mindtorch(x: Any) -> Any:
    """A mindtorch Tensor for a PyTorch tensor / numpy array / MindSpore tensor (memory shared when possible)."""
    from mindtorch.torch._tensor import Tensor, from_numpy_array

    if isinstance(x, ms.Tensor):
        if not isinstance(x, Tensor):
            x.__class__ = Tensor if type(x) is ms.Tensor else x.__class__
        return x
    if is_torch_tensor(x):
        torch = _real_torch()
        t = x.detach().cpu()
        if t.dtype == torch.bfloat16:
            return from_numpy_array(_bf16_bits_to_f32(t.contiguous().view(torch.int16).numpy().view(np.uint16)),
                                    ms.bfloat16)
        out = from_numpy_array(t.numpy())
        if x.requires_grad:
            out.requires_grad_(True)
        return out
    return from_numpy_array(np.asarray(x))


def to_torch(x: Any) -> Any:
    """A real PyTorch tensor for a mindtorch/MindSpore tensor or numpy array (memory shared when possible)."""
    torch = _real_torch()
    if is_torch_tensor(x):
        return x
    if isinstance(x, ms.Tensor) and x.dtype == ms.bfloat16:
        bits = ms.Tensor.asnumpy(x).view(np.uint16)
        return torch.from_numpy(np.ascontiguousarray(bits).view(np.int16)).view(torch.bfloat16)
    arr = to_numpy(x)
    if not arr.flags["C_CONTIGUOUS"]:
        arr = np.ascontiguousarray(arr)
    return torch.from_numpy(arr) if arr.ndim else torch.tensor(arr)
