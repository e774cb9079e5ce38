timeout 250 .device/pt/bulk_copy_ceiling  # H100, stdout returned by the device tool (no $OUT file)
