"""The exercises: for each id, its lesson, the module that checks it, and what it asks
(in both languages)."""


def _exercise(lesson, module, en, zh):
    return {"lesson": lesson, "module": module, "en": en, "zh": zh}


EXERCISES = {
    "graph_edges": _exercise(
        "01-tensors-and-the-graph", "graph_basics",
        "graph_edges(): the edges of a small graph, predicted before running it",
        "graph_edges()：先预测一张小计算图的边，再运行验证"),
    "topo_order": _exercise(
        "02-backward-order", "graph_order",
        "topo_order(output): the backward nodes in the order the engine runs them",
        "topo_order(output)：按引擎的执行顺序列出反向传播的节点"),
    "count_dependencies": _exercise(
        "02-backward-order", "graph_order",
        "count_dependencies(output): {node: number of edges pointing at it}",
        "count_dependencies(output)：{节点: 指向它的边数}，即引擎开始时的依赖计数"),
    "exp": _exercise("03-custom-functions", "functions", "Exp: eˣ as a custom Function",
                     "Exp：用自定义 Function 实现 eˣ"),
    "sigmoid": _exercise("03-custom-functions", "functions", "Sigmoid: 1/(1+e⁻ˣ)",
                         "Sigmoid：用自定义 Function 实现 1/(1+e⁻ˣ)"),
    "relu": _exercise("03-custom-functions", "functions",
                      "ReLU: max(x, 0), gradient 0 at x ≤ 0",
                      "ReLU：max(x, 0)，x ≤ 0 处梯度为 0"),
    "mul_constant": _exercise("03-custom-functions", "functions",
                              "MulConstant: tensor × Python number (no gradient for the number)",
                              "MulConstant：张量 × Python 数字（数字没有梯度）"),
    "add_broadcast": _exercise("03-custom-functions", "functions",
                               "AddBroadcast: a + b with broadcasting, gradients reduced",
                               "AddBroadcast：带广播的 a + b，梯度要归约回输入形状"),
    "seed_func": _exercise("04-saving-tensors", "saving",
                           "Func(x, y, z): x·y + y·z + w, saving tensors and keeping z, w on ctx",
                           "Func(x, y, z)：x·y + y·z + w，保存张量，把 z 和 w 放在 ctx 上"),
    "tanh_saves_output": _exercise("04-saving-tensors", "saving",
                                   "Tanh: saves its output, dx = g·(1 − y²)",
                                   "Tanh：保存输出而不是输入，dx = g·(1 − y²)"),
    "inplace_relu": _exercise("05-inplace-and-versions", "saving",
                              "InplaceReLU: clamps in place and calls ctx.mark_dirty",
                              "InplaceReLU：原地截断并调用 ctx.mark_dirty"),
    "matmul": _exercise("06-ctx-flags", "ctx_flags",
                        "MatMul: a @ b computing only the gradients needs_input_grad asks for",
                        "MatMul：a @ b，只计算 needs_input_grad 要求的梯度"),
    "max_with_index": _exercise("06-ctx-flags", "ctx_flags",
                                "MaxWithIndex: (values, indices) of the row maxima",
                                "MaxWithIndex：每行最大值及其索引，索引不可导"),
    "clip_grad_hook": _exercise("07-hooks", "hooks",
                                "hook(grad): the gradient clamped to [-1, 1]",
                                "hook(grad)：把梯度截断到 [-1, 1] 的张量钩子"),
    "pack_float16": _exercise("07-hooks", "hooks",
                              "(pack, unpack): saved float32 tensors stored as float16",
                              "(pack, unpack)：把保存的 float32 张量存成 float16"),
    "separate_gradients": _exercise(
        "08-retain-graph-and-debugging", "debugging",
        "separate_gradients(loss_a, loss_b, w): each loss's gradient, one forward, retain_graph",
        "separate_gradients(loss_a, loss_b, w)：一次前向传播，用 retain_graph 分别求两个损失的梯度"),
    "second_derivative": _exercise("09-higher-order", "higher_order",
                                   "second_derivative(f, x): d²f/dx² with create_graph",
                                   "second_derivative(f, x)：用 create_graph 求 d²f/dx²"),
    "cube_double_backward": _exercise("09-higher-order", "higher_order",
                                      "Cube: x³ with a differentiable backward",
                                      "Cube：x³，backward 本身可导"),
    "offload_to_cpu": _exercise("10-gpu", "devices",
                                "(pack, unpack): saved tensors kept in host memory, back on "
                                "their device in backward",
                                "(pack, unpack)：把保存的张量放在主机内存里，反向传播时放回原设备"),
    "linear": _exercise("11-capstone", "linear",
                        "Linear: x @ weight.T + bias, using needs_input_grad",
                        "Linear：x @ weight.T + bias，使用 needs_input_grad"),
    "mul_jvp": _exercise("12-forward-mode", "forward_mode",
                         "Mul: a·b as a custom Function with a jvp (the product rule)",
                         "Mul：带 jvp 的自定义 Function，计算 a·b（乘积法则）"),
}
