"""The manual's LeNet / CIFAR-10 training script, exactly as a PyTorch user writes it (no mindtorch here).

    python lenet_cifar10.py --data ./data          # real CIFAR-10 (downloaded on first use)
    python lenet_cifar10.py --fake --steps 20      # FakeData with CIFAR-10's shapes, no network

Run it on MindSpore unchanged with ../lenet_cifar10_mstorch_enable.py (the import hook), or rewrite its
imports once with tools/replace_import_package.sh (../lenet_cifar10_rewritten.py is that tool's output).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader
from torchvision import datasets, transforms


class LeNet(nn.Module):
    def __init__(self):
        super(LeNet, self).__init__()
        self.conv1 = nn.Conv2d(3, 16, 5)
        self.pool1 = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(16, 32, 5)
        self.pool2 = nn.MaxPool2d(2, 2)
        self.fc1 = nn.Linear(32 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = self.pool1(x)
        x = F.relu(self.conv2(x))
        x = self.pool2(x)
        x = x.view(-1, 32 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default="./data")
    parser.add_argument("--fake", action="store_true", help="FakeData instead of CIFAR-10")
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--steps", type=int, default=0, help="stop after this many steps (0: full epochs)")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--save", default="lenet.pth")
    args = parser.parse_args()

    transform = transforms.Compose(
        [transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
    if args.fake:
        train_set = datasets.FakeData(size=512, image_size=(3, 32, 32), num_classes=10, transform=transform)
    else:
        train_set = datasets.CIFAR10(root=args.data, train=True, download=True, transform=transform)
    train_data = DataLoader(train_set, batch_size=128, shuffle=True, num_workers=2, drop_last=True)

    torch.manual_seed(1)
    net = LeNet().to(args.device)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=0.0005)
    net.train()
    step = 0
    for i in range(args.epochs):
        for X, y in train_data:
            X, y = X.to(args.device), y.to(args.device)
            out = net(X)
            loss = criterion(out, y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            step += 1
            if args.steps and step >= args.steps:
                break
        print("------>epoch:{}, loss:{:.6f}".format(i, loss))
    torch.save(net.state_dict(), args.save)


if __name__ == "__main__":
    main()
