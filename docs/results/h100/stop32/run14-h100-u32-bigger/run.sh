stdbuf -oL timeout 300 .device/pt/pipe_trace u32big | grep -v '^    '  # H100; stdout returned by the device tool; every element checked
