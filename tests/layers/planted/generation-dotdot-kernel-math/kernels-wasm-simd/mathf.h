float holo_expf(float x);
