"""PyTorch Forums, "How to fix gradient at 0 for sqrt function": sqrt's gradient at 0 is
inf; adding 1e-4 before setting requires_grad makes it 50 (a += on a tensor that does
not require grad yet is allowed).

Source: https://discuss.pytorch.org/t/how-to-fix-gradient-at-0-for-sqrt-function/23390
Adapted: nothing (print's tuples are printed as Python 3 prints them).
"""
import torch

a = torch.FloatTensor([0.0, 1.0])
a.requires_grad = True

b = torch.sqrt(a)
b.sum().backward()
print("a has grad", a.requires_grad)
print("a grad", a.grad)

a = torch.FloatTensor([0.0, 1.0])
a += 1e-4  # add here
a.requires_grad = True

b = torch.sqrt(a)
b.sum().backward()
print("a has grad", a.requires_grad)
print("a grad", a.grad)
