// A module whose only function is below the threshold: it gets no region,
// only a map blob with its summary (instruction-threshold.test).
int helper(int x) { return x * 3 + 1; }
