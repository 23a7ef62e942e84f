"""Tensor utilities (to/type/casts/devices), Python protocols, torch-level helpers, unsupported-API errors,
and the registry's MindSpore-error translation."""
import pytest
from _compare import assert_same, dtype_name

import mindtorch.torch as torch


def pair(reftorch, data=((1.5, -2.0), (3.0, 4.25))):
    return torch.tensor(data), reftorch.tensor(data)


CASTS = ["float", "double", "half", "bfloat16", "int", "long", "short", "char", "byte", "bool", "cfloat"]


@pytest.mark.parametrize("name", CASTS)
def test_cast_methods(reftorch, name):
    x, rx = pair(reftorch)
    m, r = getattr(x, name)(), getattr(rx, name)()
    assert dtype_name(m.dtype) == dtype_name(r.dtype)
    if name not in ("byte", "char"):  # negative -> unsigned wraps differently per platform in torch
        assert_same(m, r, check_dtype=True)


def test_to_variants(reftorch):
    x, rx = pair(reftorch)
    assert_same(x.to(torch.float64), rx.to(reftorch.float64))
    assert_same(x.to("cpu", torch.int32), rx.to("cpu", reftorch.int32))
    assert_same(x.to(dtype=torch.int64), rx.to(dtype=reftorch.int64))
    assert_same(x.to(torch.tensor([1], dtype=torch.int16)), rx.to(reftorch.tensor([1], dtype=reftorch.int16)))
    assert x.to("cpu") is x and x.to(torch.float32) is x  # no-op returns self, as torch
    c = x.to(torch.float32, copy=True)
    c[0, 0] = 100.0
    assert x[0, 0].item() == 1.5
    assert x.to(torch.device("cpu"), non_blocking=True) is x
    g = x.to("cuda")  # recorded, data does not move (DESIGN.md §2)
    assert g.device.type == "cuda" and x.device.type == "cpu" and g.is_cuda
    assert g.cpu().device.type == "cpu" and x.cuda().device == torch.device("cuda", 0)
    assert x.cuda(0).type() == "torch.cuda.FloatTensor"


def test_type_and_type_as(reftorch):
    x, rx = pair(reftorch)
    assert x.type() == rx.type() == "torch.FloatTensor"
    for d in ("torch.LongTensor", "torch.DoubleTensor", "torch.BoolTensor", "torch.IntTensor"):
        assert x.type(d).type() == rx.type(d).type() == d
    assert_same(x.type(torch.int64), rx.type(reftorch.int64))
    assert_same(x.type_as(torch.tensor([1])), rx.type_as(reftorch.tensor([1])))
    for d in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.float16, torch.bool, torch.complex64):
        name = dtype_name(d)
        assert torch.ones(1, dtype=d).type() == reftorch.ones(1, dtype=getattr(reftorch, name)).type()
        assert torch.ones(1, dtype=d).element_size() == reftorch.ones(1, dtype=getattr(reftorch, name)).element_size()


def test_python_protocols(reftorch):
    x, rx = pair(reftorch)
    assert len(x) == len(rx) == 2
    assert [r.tolist() for r in x] == [r.tolist() for r in rx]
    s, rs = torch.tensor(3.7), reftorch.tensor(3.7)
    assert bool(s) is bool(rs) and int(s) == int(rs) and float(s) == pytest.approx(float(rs))
    i = torch.tensor(2)
    assert [10, 20, 30][i] == 30 and operator_index(i) == 2
    for lib, t in ((torch, x), (reftorch, rx)):
        with pytest.raises(RuntimeError):
            bool(t)
        with pytest.raises(TypeError):
            len(lib.tensor(1.0))
        with pytest.raises(TypeError):
            iter(lib.tensor(1.0))
        with pytest.raises(TypeError):
            [1, 2][lib.tensor(1.5)]
    assert bool(torch.tensor([0])) is False


def operator_index(t):
    import operator

    return operator.index(t)


def test_torch_level_helpers(reftorch):
    x, rx = pair(reftorch)
    assert torch.is_tensor(x) and not torch.is_tensor([1])
    assert not torch.is_storage(x)
    assert torch.numel(x) == reftorch.numel(rx) == 4
    assert torch.is_floating_point(x) and not torch.is_floating_point(torch.tensor([1]))
    assert torch.is_complex(torch.ones(1, dtype=torch.complex64)) and not torch.is_complex(x)
    cases = [(torch.tensor([1]), 1.5), (torch.tensor([1], dtype=torch.int8), torch.tensor(1000)),
             (torch.tensor([1.0], dtype=torch.float16), torch.tensor(1.0, dtype=torch.float64)),
             (torch.tensor([True]), 3), (2, 3.0),
             # a 0-d tensor of a higher category keeps its own dtype (not the default one a Python scalar gives),
             # except complex over a float tensor, which keeps the tensor's precision
             (torch.tensor([1]), torch.tensor(1.5, dtype=torch.float64)), (torch.tensor([1]), 1j),
             (torch.tensor([1.0]), torch.tensor(1j, dtype=torch.complex128)),
             (torch.tensor([1.0], dtype=torch.float64), torch.tensor(1j, dtype=torch.complex64)),
             (torch.tensor([1], dtype=torch.int32), torch.tensor(1j, dtype=torch.complex128)),
             (torch.tensor([1.0], dtype=torch.float64), 1j)]
    for a, b in cases:
        ra = reftorch.tensor(a.tolist(), dtype=getattr(reftorch, dtype_name(a.dtype))) if torch.is_tensor(a) else a
        if torch.is_tensor(b):
            rb = reftorch.tensor(b.tolist(), dtype=getattr(reftorch, dtype_name(b.dtype)))
        else:
            rb = b
        if not torch.is_tensor(a):
            continue
        assert dtype_name(torch.result_type(a, b)) == dtype_name(reftorch.result_type(ra, rb))
        assert dtype_name((a + b).dtype) == dtype_name((ra + rb).dtype)
    for a, b in ((torch.int64, torch.float32), (torch.float32, torch.int32), (torch.bool, torch.uint8),
                 (torch.complex64, torch.float64), (torch.float16, torch.float32)):
        ra, rb = getattr(reftorch, dtype_name(a)), getattr(reftorch, dtype_name(b))
        assert torch.can_cast(a, b) == reftorch.can_cast(ra, rb)
        assert dtype_name(torch.promote_types(a, b)) == dtype_name(reftorch.promote_types(ra, rb))
    assert torch.broadcast_shapes((3, 1), (1, 4)) == reftorch.broadcast_shapes((3, 1), (1, 4))


def test_variable():
    from mindtorch.torch.autograd.variable import Variable

    x = torch.ones(2)
    v = Variable(x)
    assert v is x and isinstance(x, Variable)
    assert Variable(torch.ones(2), requires_grad=True).requires_grad
    with pytest.raises(TypeError):
        Variable([1, 2])


def test_unsupported_api_names():
    from mindtorch.torch._unsupported import torch_api_names

    names = torch_api_names()
    assert "torch.zeros" in names and "torch.Tensor.add" in names
    missing = sorted(n for n in names if n.startswith("torch.") and n.count(".") == 1
                     and not hasattr(torch, n[6:]))
    assert missing, "expected at least one torch 1.12 API mindtorch lacks"
    name = missing[0][6:]
    with pytest.raises(NotImplementedError, match=rf"torch\.{name} is not supported by mindtorch yet"):
        getattr(torch, name)
    with pytest.raises(AttributeError):  # also an AttributeError: hasattr() stays False
        getattr(torch, name)
    with pytest.raises(AttributeError) as e:
        torch.definitely_not_a_torch_api  # noqa: B018 - a typo must stay a plain AttributeError
    assert not isinstance(e.value, NotImplementedError)
    tmissing = sorted(n for n in names if n.startswith("torch.Tensor.") and not hasattr(torch.Tensor, n[13:]))
    if tmissing:
        with pytest.raises(NotImplementedError, match="is not supported by mindtorch yet"):
            getattr(torch.ones(1), tmissing[0][13:])
    with pytest.raises(AttributeError) as e:
        torch.ones(1).no_such_method_xyz  # noqa: B018
    assert not isinstance(e.value, NotImplementedError)


def test_mindspore_errors_become_torch_errors(reftorch):
    """A MindSpore error inside an op surfaces as torch's exception type with `torch.<op>:` in the message and
    the MindSpore exception kept as __cause__; the success path is unaffected."""
    from mindtorch.torch._ops import _registry

    a, idx = torch.ones(2, 3), torch.ones(3, 3).long()
    with pytest.raises(RuntimeError):
        reftorch.gather(reftorch.ones(2, 3), 1, reftorch.ones(3, 3).long())
    with pytest.raises(RuntimeError) as e:  # (matmul's shape errors are checked first now, with torch's message)
        torch.gather(a, 1, idx)
    assert str(e.value).startswith("torch.gather: ") and e.value.__cause__ is not None
    assert "C++ Call Stack" not in str(e.value)
    # our own torch-style errors pass through unchanged
    with pytest.raises(IndexError, match="out of bounds"):
        a[5]
    err = ValueError("not from mindspore")
    assert _registry.translate_error("x", err) is err
