# Sourced first by a device run's script (docs/results/h100/stopNN/runN/run.sh), from the repository root:
# the OpenGL packages in .gl/ unpacked (where carried), the binaries that scripts/stage_device.sh packed into
# .device/bins.tar.gz unpacked (where carried), their runtime libraries on LD_LIBRARY_PATH, and the GPU's name
# and memory written to $OUT/gpu.txt.
if compgen -G ".gl/*.deb" >/dev/null; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
[ -f .device/bins.tar.gz ] && tar xzmf .device/bins.tar.gz -C .device  # -m: scripts/device_check.sh then leaves them
export LD_LIBRARY_PATH=$PWD/.device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,memory.total --format=csv > "$OUT/gpu.txt"
