"""The cheap dispatch paths: class-level stubs for unsupported torch Tensor APIs (no `Tensor.__getattr__`), and the
inlined add/mul fast paths, which must give torch's results (dtype promotion, broadcasting errors, autograd)."""
import numpy as np
import pytest
from _compare import assert_same

import mindtorch.torch as torch


def test_tensor_has_no_getattr_hook():
    # MindSpore's C++ probes `__ms_dispatch__`/`__fallback__` on every tensor-subclass argument of every op; without
    # a Python __getattr__ each miss stays a C-level AttributeError (half the cost).
    assert not any("__getattr__" in k.__dict__ for k in torch.Tensor.__mro__ if k is not object)
    t = torch.ones(2)
    assert not hasattr(t, "__ms_dispatch__") and not hasattr(t, "__fallback__")


def test_unsupported_tensor_api_stub():
    from mindtorch.torch._unsupported import TENSOR_STUBS, UnsupportedAPIError, torch_api_names

    assert TENSOR_STUBS, "torch 1.12 has Tensor APIs mindtorch lacks"
    name = sorted(TENSOR_STUBS)[0]
    assert f"torch.Tensor.{name}" in torch_api_names()
    t = torch.ones(2)
    assert not hasattr(t, name) and not hasattr(torch.Tensor, name)
    with pytest.raises(NotImplementedError, match=rf"torch\.Tensor\.{name} is not supported by mindtorch yet"):
        getattr(t, name)
    with pytest.raises(UnsupportedAPIError):
        getattr(torch.Tensor, name)
    assert name not in dir(t) and "add" in dir(t)
    t.__dict__[name] = 5  # an instance value still shadows the (non-data) stub, as it would without it
    assert getattr(t, name) == 5
    # nn.Parameter keeps MindSpore's `name` property (torch.Tensor.name is on the list, and missing on Tensor)
    p = torch.nn.Parameter(torch.ones(2))
    assert isinstance(p.name, str)
    with pytest.raises(AttributeError) as e:
        t.no_such_method_xyz  # noqa: B018
    assert not isinstance(e.value, NotImplementedError)
    assert "'Tensor' object has no attribute 'no_such_method_xyz'" in str(e.value)


@pytest.mark.parametrize("op", ["add", "mul"])
def test_fast_path_promotion(reftorch, op):
    f32 = np.array([1.5, -2.0, 3.25], np.float32)
    cases = [
        (f32, f32.astype(np.float64)),  # same class, different dtypes
        (f32, 2), (f32, 2.5), (f32.astype(np.int32), 3), (f32.astype(np.int32), 2.5),  # tensor-scalar
        (f32 > 0, f32 > 1),  # bool with bool
        (f32, np.array(2.0, np.float64)),  # 0-d float64 does not promote float32
    ]
    for a, b in cases:
        mine = getattr(torch, op)(torch.tensor(a), torch.tensor(b) if isinstance(b, np.ndarray) else b)
        ref = getattr(reftorch, op)(reftorch.tensor(a), reftorch.tensor(b) if isinstance(b, np.ndarray) else b)
        assert_same(mine, ref)
    ours = torch.nn.Parameter(torch.tensor(f32))  # a subclass that takes the isinstance path
    assert_same(getattr(torch, op)(ours, torch.tensor(f32)).detach(), getattr(reftorch, op)(
        reftorch.tensor(f32), reftorch.tensor(f32)))
    with pytest.raises(RuntimeError):
        getattr(torch, op)(torch.ones(3), torch.ones(4))


def test_fast_path_records_autograd():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    ((x + y) * 2.0 + x * y).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [2.0 + 3.0, 2.0 + 4.0])
    np.testing.assert_allclose(y.grad.numpy(), [2.0 + 1.0, 2.0 + 2.0])
