"""The main job, end to end: an unmodified PyTorch training script running on MindSpore through mindtorch.

    nox -s demo                         # digits (bundled with scikit-learn, no network), LeNet, backward style
    nox -s demo -- --style functional   # the manual's ms.value_and_grad form
    nox -s demo -- --cifar10 PATH       # a local CIFAR-10 folder (cifar-10-batches-py inside PATH)

The digits data set (1,797 8x8 scans of handwritten digits) is written once to MNIST's on-disk format
(idx files, upscaled to 28x28) and read back with `torchvision.datasets.MNIST`, so the real MNIST code path
runs. Everything after the first line is plain PyTorch.
"""
from mindtorch.tools import mstorch_enable  # noqa: F401  (from here on, `import torch` is mindtorch.torch)

import argparse  # noqa: E402
import os  # noqa: E402
import struct  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.utils.data import DataLoader  # noqa: E402
from torchvision import datasets, transforms  # noqa: E402

try:
    from tqdm import tqdm
except ImportError:  # pragma: no cover - tqdm is installed by the nox session
    tqdm = None


class LeNet(nn.Module):
    """LeNet-5 as in the manual, for `in_ch` x `size` x `size` inputs."""

    def __init__(self, in_ch: int = 1, size: int = 28, num_classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_ch, 16, 5)
        self.pool1 = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(16, 32, 5)
        self.pool2 = nn.MaxPool2d(2, 2)
        flat = ((size - 4) // 2 - 4) // 2
        self.flat = 32 * flat * flat
        self.fc1 = nn.Linear(self.flat, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, num_classes)

    def forward(self, x):
        x = self.pool1(F.relu(self.conv1(x)))
        x = self.pool2(F.relu(self.conv2(x)))
        x = x.view(-1, self.flat)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def write_digits_as_mnist(root: Path, seed: int = 0) -> None:
    """scikit-learn's digits -> MNIST idx files (28x28 uint8), 80/20 train/test split."""
    from PIL import Image
    from sklearn.datasets import load_digits

    raw = root / "MNIST" / "raw"
    if (raw / "t10k-labels-idx1-ubyte").exists():
        return
    raw.mkdir(parents=True, exist_ok=True)
    digits = load_digits()
    images = (digits.images * (255.0 / 16.0)).astype(np.uint8)
    images = np.stack([np.asarray(Image.fromarray(im).resize((28, 28), Image.BILINEAR)) for im in images])
    order = np.random.RandomState(seed).permutation(len(images))
    split = int(0.8 * len(order))
    for prefix, idx in (("train", order[:split]), ("t10k", order[split:])):
        with open(raw / f"{prefix}-images-idx3-ubyte", "wb") as f:
            f.write(struct.pack(">IIII", 2051, len(idx), 28, 28))
            f.write(images[idx].tobytes())
        with open(raw / f"{prefix}-labels-idx1-ubyte", "wb") as f:
            f.write(struct.pack(">II", 2049, len(idx)))
            f.write(digits.target[idx].astype(np.uint8).tobytes())


def evaluate(net: nn.Module, loader: DataLoader) -> float:
    net.eval()
    correct = total = 0
    with torch.no_grad():
        for x, y in loader:
            pred = net(x).argmax(dim=1)
            correct += int((pred == y).sum())
            total += y.shape[0]
    net.train()
    return correct / total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--style", choices=("backward", "functional"), default="backward")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--data", default=os.environ.get("MINDTORCH_DEMO_DATA", "./data"))
    ap.add_argument("--cifar10", default=None, help="a local CIFAR-10 root instead of the digits")
    ap.add_argument("--out", default="lenet_demo.pth")
    ap.add_argument("--target-accuracy", type=float, default=0.90)
    args = ap.parse_args()

    torch.manual_seed(0)
    if args.cifar10:
        tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
        train_set = datasets.CIFAR10(args.cifar10, train=True, download=False, transform=tf)
        test_set = datasets.CIFAR10(args.cifar10, train=False, download=False, transform=tf)
        net = LeNet(3, 32)
    else:
        write_digits_as_mnist(Path(args.data))
        tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
        train_set = datasets.MNIST(args.data, train=True, download=False, transform=tf)
        test_set = datasets.MNIST(args.data, train=False, download=False, transform=tf)
        net = LeNet(1, 28)
    train_loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, drop_last=True)
    test_loader = DataLoader(test_set, batch_size=256)
    print(f"data: {len(train_set)} train / {len(test_set)} test samples; style: {args.style}")

    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=max(1, args.epochs // 2), gamma=0.3)

    if args.style == "functional":
        import mindspore as ms

        def forward_fn(data, label):
            logits = net(data)
            return criterion(logits, label), logits

        grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

        def train_step(data, label):
            (loss, _), grads = grad_fn(data, label)
            optimizer(grads)
            return loss
    else:
        def train_step(data, label):
            loss = criterion(net(data), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            return loss

    net.train()
    start = time.time()
    acc = 0.0
    for epoch in range(args.epochs):
        total, n = 0.0, 0
        batches = tqdm(train_loader, desc=f"epoch {epoch + 1}/{args.epochs}", leave=False) if tqdm else train_loader
        for x, y in batches:
            loss = train_step(x, y)
            total += float(loss)
            n += 1
        scheduler.step()
        acc = evaluate(net, test_loader)
        print(f"epoch {epoch + 1}: loss {total / n:.4f}  test accuracy {acc:.2%}  ({time.time() - start:.0f}s)")

    torch.save(net.state_dict(), args.out)
    print(f"saved {args.out} (PyTorch's format: loads with real torch.load(..., weights_only=True))")
    if not args.cifar10 and acc < args.target_accuracy:
        print(f"FAILED: accuracy {acc:.2%} below the stated target {args.target_accuracy:.0%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
