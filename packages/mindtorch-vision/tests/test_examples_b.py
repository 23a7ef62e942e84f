"""torchvision pieces of the official examples (imagenet, siamese_network, fast_neural_style) under mindtorch:
ImageFolder + the imagenet transforms against PIL/numpy, the DataLoader options the examples pass, resnet18 /
vgg16 surgery, and a siamese step through a shared resnet18 against real torch (same weights, float64)."""

import numpy as np
import pytest
from PIL import Image
from vision_helpers import asnp

import mindtorch.torch as torch
import mindtorch.torch.nn as nn
from mindtorch.torchvision import datasets, models, transforms

MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]


@pytest.fixture(scope="module")
def image_root(tmp_path_factory):
    root = tmp_path_factory.mktemp("imagefolder")
    rng = np.random.RandomState(0)
    for c in ("dog", "cat"):
        (root / c).mkdir()
        for i in range(4):
            arr = rng.randint(0, 256, (40 + 3 * i, 52, 3), dtype=np.uint8)
            Image.fromarray(arr).save(root / c / f"{i}.png")
    return str(root)


def test_imagefolder_val_transform_matches_pil(image_root):
    ds = datasets.ImageFolder(image_root, transforms.Compose([
        transforms.Resize(36), transforms.CenterCrop(32), transforms.ToTensor(), transforms.Normalize(MEAN, STD)]))
    assert ds.classes == ["cat", "dog"] and ds.class_to_idx == {"cat": 0, "dog": 1}
    assert [t for _, t in ds.samples] == [0, 0, 0, 0, 1, 1, 1, 1]
    for i in (0, 7):
        x, y = ds[i]
        img = Image.open(ds.samples[i][0]).convert("RGB")
        w, h = img.size
        nw, nh = (36, int(36 * h / w)) if w < h else (int(36 * w / h), 36)
        r = img.resize((nw, nh), Image.BILINEAR)
        left, top = int(round((nw - 32) / 2.0)), int(round((nh - 32) / 2.0))
        ref = np.asarray(r.crop((left, top, left + 32, top + 32)), dtype=np.float32).transpose(2, 0, 1) / 255
        ref = (ref - np.float32(MEAN)[:, None, None]) / np.float32(STD)[:, None, None]
        assert isinstance(y, int) and y == ds.targets[i]
        np.testing.assert_allclose(asnp(x), ref, atol=1e-5)


@pytest.mark.parametrize("num_workers", [0, 2])
def test_train_loader_random_transforms(image_root, num_workers):
    ds = datasets.ImageFolder(image_root, transforms.Compose([
        transforms.RandomResizedCrop(16), transforms.RandomHorizontalFlip(), transforms.ToTensor(),
        transforms.Normalize(MEAN, STD)]))

    def epoch():
        loader = torch.utils.data.DataLoader(ds, batch_size=3, shuffle=True, num_workers=num_workers,
                                             pin_memory=True, sampler=None, drop_last=True)
        return [(asnp(x), asnp(y)) for x, y in loader]

    torch.manual_seed(0)
    e1, e2 = epoch(), epoch()
    torch.manual_seed(0)
    e1_again = epoch()
    assert len(e1) == 2 and e1[0][0].shape == (3, 3, 16, 16) and e1[0][1].dtype == np.int64
    for (a, ya), (b, yb) in zip(e1, e1_again):  # torch.manual_seed makes crops and order reproducible
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(ya, yb)
    assert not all(np.array_equal(a, b) for (a, _), (b, _) in zip(e1, e2))  # a new epoch draws new crops
    # every value is a normalised pixel of the source images: within [(0-mean)/std, (1-mean)/std]
    lo = (0 - np.float32(MEAN)) / np.float32(STD)
    hi = (1 - np.float32(MEAN)) / np.float32(STD)
    x = np.concatenate([b for b, _ in e1])
    assert (x.min(axis=(0, 2, 3)) >= lo - 1e-5).all() and (x.max(axis=(0, 2, 3)) <= hi + 1e-5).all()


def test_resnet18_head_and_stem_replacement():
    model = models.resnet18(num_classes=10)
    assert model.fc.out_features == 10 and model.fc.in_features == 512
    assert sum(p.numel() for p in models.resnet18(weights=None).parameters()) == 11689512  # torchvision's count
    model.fc = nn.Linear(model.fc.in_features, 3)
    model.conv1 = nn.Conv2d(1, 64, kernel_size=7, stride=2, padding=3, bias=False)
    sd = model.state_dict()
    assert tuple(sd["conv1.weight"].shape) == (64, 1, 7, 7) and tuple(sd["fc.weight"].shape) == (3, 512)
    model.eval()
    out = model(torch.rand(2, 1, 32, 32))
    assert tuple(out.shape) == (2, 3)


def test_vgg16_features_slices_into_sequential():
    vgg = models.vgg16(weights=None)
    assert sum(p.numel() for p in vgg.parameters()) == 138357544
    features = vgg.features
    s1 = nn.Sequential()
    for x in range(4):
        s1.add_module(str(x), features[x])
    assert [type(m).__name__ for m in features[:4]] == ["Conv2d", "ReLU", "Conv2d", "ReLU"]
    assert s1[0] is features[0]  # shared, as in torch: the slices reuse the pretrained layers
    x = torch.rand(1, 3, 8, 8)
    np.testing.assert_allclose(asnp(s1(x)), asnp(features[:4](x)), rtol=1e-5, atol=1e-6)


def _ref_resnet18(rt):
    """torchvision's resnet18 written with real torch (same state_dict keys), as the numeric reference."""
    rn = rt.nn

    class Block(rn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1, self.bn1 = rn.Conv2d(cin, cout, 3, stride, 1, bias=False), rn.BatchNorm2d(cout)
            self.relu = rn.ReLU(inplace=True)
            self.conv2, self.bn2 = rn.Conv2d(cout, cout, 3, 1, 1, bias=False), rn.BatchNorm2d(cout)
            self.downsample = (rn.Sequential(rn.Conv2d(cin, cout, 1, stride, bias=False), rn.BatchNorm2d(cout))
                               if stride != 1 or cin != cout else None)

        def forward(self, x):
            idt = x if self.downsample is None else self.downsample(x)
            return self.relu(self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x))))) + idt)

    class ResNet(rn.Module):
        def __init__(self):
            super().__init__()
            self.conv1, self.bn1 = rn.Conv2d(3, 64, 7, 2, 3, bias=False), rn.BatchNorm2d(64)
            self.relu, self.maxpool = rn.ReLU(inplace=True), rn.MaxPool2d(3, 2, 1)
            for i, (cin, cout, s) in enumerate([(64, 64, 1), (64, 128, 2), (128, 256, 2), (256, 512, 2)]):
                setattr(self, f"layer{i + 1}", rn.Sequential(Block(cin, cout, s), Block(cout, cout, 1)))
            self.avgpool, self.fc = rn.AdaptiveAvgPool2d((1, 1)), rn.Linear(512, 1000)

    return ResNet()


def _siamese(T, resnet):
    nn_ = T.nn

    class Siamese(nn_.Module):
        def __init__(self):
            super().__init__()
            fin = resnet.fc.in_features if hasattr(resnet.fc, "in_features") else 512
            self.resnet = nn_.Sequential(*(list(resnet.children())[:-1]))
            self.fc = nn_.Sequential(nn_.Linear(fin * 2, 16), nn_.ReLU(inplace=True), nn_.Linear(16, 1))
            self.sigmoid = nn_.Sigmoid()

        def forward_once(self, x):
            o = self.resnet(x)
            return o.view(o.size()[0], -1)

        def forward(self, a, b):
            return self.sigmoid(self.fc(T.cat((self.forward_once(a), self.forward_once(b)), 1)))

    return Siamese()


def test_siamese_resnet18_bce_step_matches_torch(reftorch):
    # float32 and one training forward/backward: in float64 a resnet18 step costs seconds here, and after an
    # Adadelta step (~1e-3 per parameter, whatever the gradient's size) float32 rounding decides signs.
    mine = _siamese(torch, models.resnet18(weights=None))
    ref = _siamese(reftorch, _ref_resnet18(reftorch))
    sd = {k: asnp(v).copy() for k, v in mine.state_dict().items()}
    ref.load_state_dict({k: reftorch.from_numpy(v) for k, v in sd.items()})
    rng = np.random.RandomState(0)
    a, b = rng.randn(4, 3, 16, 16).astype(np.float32), rng.randn(4, 3, 16, 16).astype(np.float32)
    t = np.array([1.0, 0.0, 1.0, 0.0], dtype=np.float32)
    results = []
    for T, m in ((torch, mine), (reftorch, ref)):
        opt = T.optim.Adadelta(m.parameters(), lr=1.0)
        sched = T.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.7)
        opt.zero_grad()
        loss = T.nn.BCELoss()(m(T.from_numpy(a), T.from_numpy(b)).squeeze(), T.from_numpy(t))
        loss.backward()
        grads = [m.fc[0].weight.grad.numpy().copy(), m.resnet[0].weight.grad.numpy().copy()]
        m.eval()  # running stats from the training forward
        with T.no_grad():
            out = m(T.from_numpy(a), T.from_numpy(b)).squeeze()
        pred = T.where(out > 0.5, 1, 0)
        opt.step()
        sched.step()
        results.append((loss.item(), grads, out.numpy(), str(pred.dtype),
                        pred.eq(T.from_numpy(t).view_as(pred)).sum().item(), opt.param_groups[0]["lr"]))
    (lm, gm, om, *rest_m), (lr_, gr, or_, *rest_r) = results
    np.testing.assert_allclose(lm, lr_, rtol=1e-5)
    for g1, g2 in zip(gm, gr):
        np.testing.assert_allclose(g1, g2, rtol=1e-3, atol=1e-3 * np.abs(g2).max())
    np.testing.assert_allclose(om, or_, rtol=1e-4)
    assert rest_m == rest_r
