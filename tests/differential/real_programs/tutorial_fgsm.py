"""Adversarial Example Generation (FGSM): the gradient of the loss w.r.t. the input
image (data.requires_grad = True), and the attack image + epsilon * sign(grad), clamped
to [0, 1].

Source: https://pytorch.org/tutorials/beginner/fgsm_tutorial.html
        (pytorch/tutorials, beginner_source/fgsm_tutorial.py: fgsm_attack, test)
Adapted: a linear model written with tensors stands in for the LeNet and MNIST; one
batch of four 8-pixel images.
"""
import torch
import torch.nn.functional as F


def fgsm_attack(image, epsilon, data_grad):
    sign_data_grad = data_grad.sign()
    perturbed_image = image + epsilon*sign_data_grad
    perturbed_image = torch.clamp(perturbed_image, 0, 1)
    return perturbed_image


w = torch.randn(8, 3)


def model(x):
    return F.log_softmax(x @ w, dim=1)


data = torch.rand(4, 8)
target = torch.tensor([0, 2, 1, 0])
for epsilon in [0, .05, .1, .3]:
    data.grad = None
    data.requires_grad = True
    output = model(data)
    init_pred = output.max(1, keepdim=True)[1]
    loss = F.nll_loss(output, target)
    loss.backward()
    data_grad = data.grad.data
    perturbed_data = fgsm_attack(data, epsilon, data_grad)
    output = model(perturbed_data)
    final_pred = output.max(1, keepdim=True)[1]
    correct = (final_pred.squeeze() == target).sum().item()
    print(f"Epsilon: {epsilon}\tTest Accuracy = {correct} / {len(target)}",
          init_pred.view(-1).tolist(), perturbed_data.requires_grad)
