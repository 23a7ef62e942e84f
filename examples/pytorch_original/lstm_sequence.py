"""A small LSTM sequence classifier, plain PyTorch, on a synthetic task that needs memory.

Each sequence is 20 random tokens from a vocabulary of 16; the label is the largest token in the sequence
(the model must keep a running maximum in its state). Reaches >90% in a few hundred steps.

    python lstm_sequence.py --steps 300
On MindSpore: python ../run_with_mindtorch.py lstm_sequence.py --steps 300
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Tagger(nn.Module):
    def __init__(self, vocab=16, embed=32, hidden=64, classes=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=1, batch_first=True)
        self.head = nn.Linear(hidden, classes)

    def forward(self, tokens):
        out, (h, c) = self.lstm(self.embed(tokens))
        return self.head(h[-1])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--seq-len", type=int, default=20)
    args = parser.parse_args()

    torch.manual_seed(0)
    tokens = torch.randint(0, 16, (4096, args.seq_len))
    labels = tokens.max(dim=1).values
    loader = DataLoader(TensorDataset(tokens, labels), batch_size=64, shuffle=True, drop_last=True)

    model = Tagger()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    criterion = nn.CrossEntropyLoss()
    step = 0
    while step < args.steps:
        for x, y in loader:
            logits = model(x)
            loss = criterion(logits, y)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            step += 1
            if step % 50 == 0 or step == args.steps:
                acc = (logits.argmax(-1) == y).float().mean().item()
                print(f"step {step}: loss {loss.item():.4f} batch acc {acc:.2%}")
            if step >= args.steps:
                break


if __name__ == "__main__":
    main()
