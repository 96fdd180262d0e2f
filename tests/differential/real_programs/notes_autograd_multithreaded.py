"""Autograd mechanics, "Multithreaded Autograd": the same train_fn run in ten threads,
each with its own graph.

Source: https://pytorch.org/docs/2.13/notes/autograd.html#multithreaded-autograd
        (pytorch/pytorch, docs/source/notes/autograd.rst)
Adapted: each thread keeps its x, whose gradient is printed after the joins.
"""
import threading

import torch

results = {}


def train_fn(index):
    x = torch.ones(5, 5, requires_grad=True)
    # forward
    y = (x + 3) * (x + 4) * 0.5
    # backward
    y.sum().backward()
    results[index] = x.grad


threads = []
for index in range(10):
    p = threading.Thread(target=train_fn, args=(index,))
    p.start()
    threads.append(p)

for p in threads:
    p.join()

print(len(results), all(torch.equal(results[0], g) for g in results.values()))
print(results[3])
