"""PyTorch Forums, "Leaf variable was used in an inplace operation" (the accepted
answer): what a leaf is, why x += 1 on a leaf that requires grad is refused, and the two
ways out -- clone first, or update under no_grad.

Source: https://discuss.pytorch.org/t/leaf-variable-was-used-in-an-inplace-operation/308/2
Adapted: the refused line is caught; the answer's snippets run one after the other.
"""
import torch

w = torch.tensor([1.0, 2.0, 3.0])  # leaf variable
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)  # also leaf variable
y = x + 1  # not a leaf variable
print(w.is_leaf, x.is_leaf, y.is_leaf)

try:
    x += 1  # in-place
except RuntimeError as error:
    print("RuntimeError:", error)

x2 = x.clone()  # clone the variable
x2 += 1  # in-place operation
print(x2)

with torch.no_grad():
    x += 1
print(x, x.requires_grad, x.is_leaf)
