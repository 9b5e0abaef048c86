extern "C" __global__ void cvt_int(const signed char* c, const short* s, const unsigned short* us, long long* out, int* t) {
  int i = threadIdx.x;
  out[i] = (long long)c[i] + (long long)s[i] + (long long)us[i];
  t[i] = (int)(short)(out[i] >> 3) + (int)(signed char)t[i];
}
