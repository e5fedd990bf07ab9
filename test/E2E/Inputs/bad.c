/* Does not compile: lwp-run must stop at stage 1 with clang's error. */
int f(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += I +;
  return S;
}
