""""Can't call numpy() on Tensor that requires grad" (the question and its answers):
detach first, or use torch.no_grad for the whole computation.

Source: https://stackoverflow.com/questions/63582590/why-do-we-call-detach-before-calling-numpy-on-a-pytorch-tensor
        https://androidkt.com/fix-cant-call-numpy-on-tensor-that-requires-grad-use-tensor-detach-numpy-instead/
Adapted: restated in a few lines.
"""
import numpy as np
import torch

x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
try:
    y.numpy()
except RuntimeError as error:
    print("RuntimeError:", error)
print(y.detach().numpy())
print(type(y.detach().numpy()), y.detach().numpy().dtype)
with torch.no_grad():
    print(np.asarray(x * 2))
print(y.tolist(), y.detach().cpu().numpy().sum())
