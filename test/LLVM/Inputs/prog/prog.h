void fill(float *X, int N, float V);
float sum(const float *X, int N);
int find_first(const float *X, int N, float V);
void matmul(const float *A, const float *B, float *C, int N);
int atoi_small(const char *S);
