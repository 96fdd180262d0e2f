"""Why a loss taken through .item() cannot be backpropagated (an answer on "element 0 of
tensors does not require grad"): item() gives a Python float, which has no backward at
all; detach().numpy() and back cuts the graph the same way.

Source: https://deepinout.com/pytorch/pytorch-questions/75_pytorch_runtime_error_element_0_of_tensors_does_not_require_grad_and_does_not_have_a_grad_fn.html
Adapted: the errors are caught.
"""
import torch

x = torch.tensor([1.0], requires_grad=True)
y = torch.sin(x)
z = y.item()  # 将张量转换为标量值
try:
    z.backward()
except AttributeError as error:
    print("AttributeError:", error)

w = torch.from_numpy(y.detach().numpy()) * 2
try:
    w.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)
print(type(z), w.requires_grad, torch.is_tensor(w), torch.is_tensor(z))
