import paddle, paddle.nn as nn
m = nn.Linear(8, 16); o = paddle.optimizer.Adam(parameters=m.parameters())
for r in (1, 2):
    paddle.save(o.state_dict(), f"ckpt/opt-rank{r}.pdopt")
