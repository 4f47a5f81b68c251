import os, numpy as np
os.makedirs('data', exist_ok=True)
for i in range(400):
    np.save(f'data/rec_{i}.npy', np.zeros(8, 'float32'))
