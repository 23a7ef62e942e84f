"""The benchmark models, written once for any torch-like module (real PyTorch or mindtorch.torch), plus the
same models written natively in MindSpore (nn.Cell) for the native baseline."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any


def torch_models(torch: Any) -> SimpleNamespace:
    """LeNet, MLP, LSTM classifier and ResNet-18 (CIFAR stem) against the given torch API."""
    nn, F = torch.nn, torch.nn.functional

    class LeNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, 5)
            self.pool1 = nn.MaxPool2d(2, 2)
            self.conv2 = nn.Conv2d(16, 32, 5)
            self.pool2 = nn.MaxPool2d(2, 2)
            self.fc1 = nn.Linear(32 * 5 * 5, 120)
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, x):
            x = self.pool1(F.relu(self.conv1(x)))
            x = self.pool2(F.relu(self.conv2(x)))
            x = x.view(-1, 32 * 5 * 5)
            return self.fc3(F.relu(self.fc2(F.relu(self.fc1(x)))))

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(),
                                     nn.Linear(128, 10))

        def forward(self, x):
            return self.net(x)

    class LSTMClassifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(1000, 64)
            self.lstm = nn.LSTM(64, 128, batch_first=True)
            self.fc = nn.Linear(128, 10)

        def forward(self, x):
            out, _ = self.lstm(self.embed(x))
            return self.fc(out[:, -1])

    class BasicBlock(nn.Module):
        def __init__(self, cin, cout, stride=1):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = nn.BatchNorm2d(cout)
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            out = F.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return F.relu(out + (x if self.down is None else self.down(x)))

    class ResNet18(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 3, 1, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            layers, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout)]
                cin = cout
            self.layers = nn.Sequential(*layers)
            self.fc = nn.Linear(512, 10)

        def forward(self, x):
            x = self.layers(F.relu(self.bn1(self.conv1(x))))
            return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))

    return SimpleNamespace(LeNet=LeNet, MLP=MLP, LSTM=LSTMClassifier, ResNet18=ResNet18)


def mindspore_models() -> SimpleNamespace:
    """The same models as idiomatic native MindSpore cells."""
    import mindspore as ms
    from mindspore import nn, ops

    class LeNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 16, 5, pad_mode="valid", has_bias=True)
            self.conv2 = nn.Conv2d(16, 32, 5, pad_mode="valid", has_bias=True)
            self.pool = nn.MaxPool2d(2, 2)
            self.relu = nn.ReLU()
            self.fc1 = nn.Dense(32 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, 10)

        def construct(self, x):
            x = self.pool(self.relu(self.conv1(x)))
            x = self.pool(self.relu(self.conv2(x)))
            x = x.view(-1, 32 * 5 * 5)
            return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

    class MLP(nn.Cell):
        def __init__(self):
            super().__init__()
            self.net = nn.SequentialCell(nn.Flatten(), nn.Dense(784, 256), nn.ReLU(), nn.Dense(256, 128), nn.ReLU(),
                                         nn.Dense(128, 10))

        def construct(self, x):
            return self.net(x)

    class LSTMClassifier(nn.Cell):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(1000, 64)
            self.lstm = nn.LSTM(64, 128, batch_first=True)
            self.fc = nn.Dense(128, 10)

        def construct(self, x):
            out, _ = self.lstm(self.embed(x))
            return self.fc(out[:, -1])

    class BasicBlock(nn.Cell):
        def __init__(self, cin, cout, stride=1):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, 1, pad_mode="pad", padding=1)
            self.bn2 = nn.BatchNorm2d(cout)
            self.relu = nn.ReLU()
            self.down = None
            if stride != 1 or cin != cout:
                self.down = nn.SequentialCell(nn.Conv2d(cin, cout, 1, stride), nn.BatchNorm2d(cout))

        def construct(self, x):
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.bn2(self.conv2(out))
            return self.relu(out + (x if self.down is None else self.down(x)))

    class ResNet18(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 3, 1, pad_mode="pad", padding=1)
            self.bn1 = nn.BatchNorm2d(64)
            layers, cin = [], 64
            for cout, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
                layers += [BasicBlock(cin, cout, stride), BasicBlock(cout, cout)]
                cin = cout
            self.layers = nn.SequentialCell(layers)
            self.relu = nn.ReLU()
            self.fc = nn.Dense(512, 10)

        def construct(self, x):
            x = self.layers(self.relu(self.bn1(self.conv1(x))))
            return self.fc(ops.mean(x, (2, 3)))

    del ms
    return SimpleNamespace(LeNet=LeNet, MLP=MLP, LSTM=LSTMClassifier, ResNet18=ResNet18)


# name -> (input shape, input kind, batch)
SHAPES = {
    "LeNet": ((128, 3, 32, 32), "float"),
    "ResNet18": ((32, 3, 32, 32), "float"),
    "MLP": ((128, 1, 28, 28), "float"),
    "LSTM": ((32, 40), "tokens"),
}
