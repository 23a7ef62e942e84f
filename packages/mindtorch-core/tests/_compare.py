"""Comparing mindtorch results with real PyTorch: values, dtype and shape."""
from typing import Any, Callable, Type

import numpy as np


def dtype_name(d: Any) -> str:
    """'float32' for torch.float32 (real torch) and for mindtorch's dtype (a MindSpore dtype)."""
    s = str(d)
    if s.startswith("torch."):
        return s[6:]
    import mindtorch.torch._dtype as D

    return D.torch_name(d)[6:]


def to_np(t: Any) -> np.ndarray:
    if hasattr(t, "detach") and type(t).__module__.startswith("torch"):
        t = t.detach()
        if str(t.dtype) == "torch.bfloat16":
            t = t.float()
        return t.numpy()
    return np.asarray(t)


def assert_same(mine: Any, ref: Any, rtol: float = 1.3e-6, atol: float = 1e-5, check_dtype: bool = True) -> None:
    """Same shape, dtype and values (nested tuples/lists compared element-wise)."""
    if isinstance(ref, (tuple, list)):
        assert isinstance(mine, (tuple, list)), f"expected a sequence, got {type(mine).__name__}"
        assert len(mine) == len(ref)
        for m, r in zip(mine, ref):
            assert_same(m, r, rtol, atol, check_dtype)
        return
    if not hasattr(ref, "shape"):
        assert mine == ref or np.allclose(mine, ref, rtol=rtol, atol=atol), f"{mine} != {ref}"
        return
    assert tuple(mine.shape) == tuple(ref.shape), f"shape {tuple(mine.shape)} != {tuple(ref.shape)}"
    if check_dtype:
        assert dtype_name(mine.dtype) == dtype_name(ref.dtype), f"dtype {mine.dtype} != {ref.dtype}"
    m, r = to_np(mine), to_np(ref)
    if r.dtype == np.bool_ or np.issubdtype(r.dtype, np.integer):
        np.testing.assert_array_equal(m, r)
    elif np.iscomplexobj(m) or np.iscomplexobj(r):  # both parts (a float64 cast would drop the imaginary one)
        np.testing.assert_allclose(m.astype(np.complex128), r.astype(np.complex128), rtol=rtol, atol=atol,
                                   equal_nan=True)
    else:
        np.testing.assert_allclose(m.astype(np.float64), r.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


def assert_same_error(exc: Type[BaseException], call: Callable[[Any], Any], reftorch: Any) -> None:
    """call(torch module) raises `exc` with the same message for mindtorch as for real torch."""
    import pytest

    import mindtorch.torch as torch

    with pytest.raises(exc) as ref:
        call(reftorch)
    with pytest.raises(exc) as mine:
        call(torch)
    assert str(mine.value) == str(ref.value)
