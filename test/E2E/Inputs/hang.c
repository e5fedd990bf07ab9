/* Never ends: lwp-run --timeout (test/E2E/lwp-run-errors.test). */
int main(void) { volatile int x = 0; while (!x) {} return 0; }
