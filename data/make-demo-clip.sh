#!/bin/sh
# Renders data/demo-printer.mp4, the built-in demo camera: a synthetic print bed on which a part
# grows layer by layer under a moving print head. 8 s at 640×360, 15 fps, H.264; it loops seamlessly
# enough for a demo. Run from anywhere; needs ffmpeg with libx264.
set -eu
out="$(dirname "$0")/demo-printer.mp4"
ffmpeg -hide_banner -loglevel error -y -f lavfi -i "\
color=c=0x1b1f24:s=640x360:r=15:d=8[bg];\
color=c=0x2f8f5a:s=180x80:r=15[part];\
color=c=0x3a3f47:s=640x110:r=15[bed];\
color=c=0x6b7280:s=640x10:r=15[gantry];\
color=c=0xd0d4da:s=24x48:r=15[head];\
color=c=0xff8a3d:s=8x4:r=15[melt];\
[bg][part]overlay=x=230:y='250-6-t*8':eval=frame[a];\
[a][bed]overlay=x=0:y=250[b];\
[b][gantry]overlay=x=0:y='190-t*8':eval=frame[c];\
[c][head]overlay=x='224+166*abs(sin(t*1.5708))':y='196-t*8':eval=frame:shortest=1[d];\
[d][melt]overlay=x='232+166*abs(sin(t*1.5708))':y='244-t*8':eval=frame:shortest=1" \
  -t 8 -c:v libx264 -pix_fmt yuv420p -preset veryslow -crf 28 -g 15 -movflags +faststart "$out"
