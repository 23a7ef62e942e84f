"""Helpers shared by the vision tests (a uniquely named module: core's tests have their own conftest)."""
import numpy as np


def asnp(t):
    """numpy value of a mindtorch tensor (or array)."""
    from mindtorch.torchvision._bridge import to_numpy

    return np.asarray(to_numpy(t))


def assert_close(mine, ref, atol=1e-5, rtol=1e-5, exact_dtype=True):
    m = asnp(mine)
    ref = np.asarray(ref)
    assert m.shape == ref.shape, f"shape {m.shape} != {ref.shape}"
    if exact_dtype:
        assert m.dtype == ref.dtype, f"dtype {m.dtype} != {ref.dtype}"
    np.testing.assert_allclose(m.astype(np.float64), ref.astype(np.float64), atol=atol, rtol=rtol)
