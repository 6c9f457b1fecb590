float holo_gen_expf(float x);
