stdbuf -oL timeout 400 .device/pt/pipe_trace u64 | grep -v '^    '  # H100; stdout returned by the device tool; every element checked (no FAILED line)
