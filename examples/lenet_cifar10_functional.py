"""Form (b): the manual's Step 2, MindSpore's functional training loop on a mindtorch model.

    python lenet_cifar10_functional.py --fake --steps 20

The model, data pipeline and optimizer are PyTorch code; the step is `ms.value_and_grad(forward_fn, None,
optimizer.parameters, has_aux=True)` followed by `optimizer(grads)`, exactly as the manual writes it.
"""
import argparse
import sys
from pathlib import Path

import mindspore as ms

import mindtorch.torch as torch
import mindtorch.torch.nn as nn
from mindtorch.torch.utils.data import DataLoader
from mindtorch.torchvision import datasets, transforms

sys.path.insert(0, str(Path(__file__).parent))
from lenet_cifar10_rewritten import LeNet  # noqa: E402  (the manual's model, imports rewritten to mindtorch)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--fake", action="store_true")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=0)
    parser.add_argument("--save", default="lenet_functional.pth")
    args = parser.parse_args()

    transform = transforms.Compose(
        [transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
    if args.fake:
        train_set = datasets.FakeData(size=512, image_size=(3, 32, 32), num_classes=10, transform=transform)
    else:
        train_set = datasets.CIFAR10(root=args.data, train=True, download=True, transform=transform)
    train_data = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=2, drop_last=True)

    torch.manual_seed(1)
    net = LeNet()
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=0.0005)

    # 定义前向过程 (the forward pass)
    def forward_fn(data, label):
        logits = net(data)
        loss = criterion(logits, label)
        return loss, logits

    # 反向梯度定义 (the gradient function)
    grad_fn = ms.ops.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    # 单步训练定义 (one training step)
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    net.train()
    step = 0
    for i in range(args.epochs):
        for X, y in train_data:
            res = train_step(X, y)
            step += 1
            if args.steps and step >= args.steps:
                break
        print("------>epoch:{}, loss:{:.6f}".format(i, res.numpy()))
    torch.save(net.state_dict(), args.save)


if __name__ == "__main__":
    main()
