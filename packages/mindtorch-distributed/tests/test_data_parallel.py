"""torch.nn.DataParallel in one process: a real nn.Module around the model (submodule `module`) whose
forward is the model's, compared with real torch's DataParallel on CPU (no visible GPU: torch also runs
the module as is)."""
import numpy as np

import mindtorch.torch as torch
from mindtorch.torch import nn
from mindtorch.torch._dtype import torch_name


def same(mine, ref):
    """Same shape, dtype and values as real torch's tensor."""
    assert tuple(mine.shape) == tuple(ref.shape)
    assert torch_name(mine.dtype) == str(ref.dtype), (mine.dtype, ref.dtype)
    np.testing.assert_allclose(mine.detach().numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-6)


def _pair(reftorch):
    rng = np.random.RandomState(0)
    w = rng.randn(3, 4).astype(np.float32)
    mine = nn.Sequential(nn.Linear(4, 3), nn.BatchNorm1d(3))
    ref = reftorch.nn.Sequential(reftorch.nn.Linear(4, 3), reftorch.nn.BatchNorm1d(3))
    mine[0].weight.data = torch.from_numpy(w)
    mine[0].bias.data = torch.zeros(3)
    with reftorch.no_grad():
        ref[0].weight.copy_(reftorch.from_numpy(w))
        ref[0].bias.zero_()
    return mine, ref


def test_data_parallel_is_a_module_with_torchs_state_dict_keys(reftorch):
    mine, ref = _pair(reftorch)
    dp, rdp = nn.DataParallel(mine), reftorch.nn.DataParallel(ref)
    assert isinstance(dp, nn.Module) and dp.module is mine
    assert list(dp.state_dict()) == list(rdp.state_dict())
    assert [n for n, _ in dp.named_parameters()] == [n for n, _ in rdp.named_parameters()]
    assert [id(p) for p in dp.parameters()] == [id(p) for p in mine.parameters()]
    assert dp.device_ids == rdp.device_ids == []
    assert dp.eval() is dp and mine.training is False and dp.train() is dp and mine.training is True
    assert dp.to(torch.float32) is dp
    # a torch-style checkpoint (module.-prefixed keys) loads into the wrapper
    state = {k: torch.from_numpy(v.detach().numpy().copy()) for k, v in rdp.state_dict().items()}
    assert tuple(dp.load_state_dict(state)) == ([], [])


def test_data_parallel_forward_and_backward_match_torch(reftorch):
    mine, ref = _pair(reftorch)
    dp, rdp = nn.DataParallel(mine), reftorch.nn.DataParallel(ref)
    x = np.random.RandomState(1).randn(5, 4).astype(np.float32)
    out, rout = dp(torch.from_numpy(x)), rdp(reftorch.from_numpy(x))
    same(out, rout)
    out.sum().backward()
    rout.sum().backward()
    same(mine[0].weight.grad, ref[0].weight.grad)
    same(mine[1].running_mean, ref[1].running_mean)
