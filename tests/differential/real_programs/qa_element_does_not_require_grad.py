""""element 0 of tensors does not require grad and does not have a grad_fn" (the
question and its answers): a loss computed from tensors that do not require grad, or
under no_grad, or through .item()/torch.tensor, cannot be backpropagated.

Source: https://deepinout.com/pytorch/pytorch-questions/75_pytorch_runtime_error_element_0_of_tensors_does_not_require_grad_and_does_not_have_a_grad_fn.html
Adapted: restated in a few lines.
"""
import torch

w = torch.tensor([1., 2.])
loss = (w * 3).sum()
try:
    loss.backward()
except RuntimeError as error:
    print("1:", error)

w.requires_grad_()
with torch.no_grad():
    loss = (w * 3).sum()
try:
    loss.backward()
except RuntimeError as error:
    print("2:", error)

loss = torch.tensor((w * 3).sum().item())
try:
    loss.backward()
except RuntimeError as error:
    print("3:", error)

loss = (w * 3).sum()
loss.backward()
print(w.grad)
