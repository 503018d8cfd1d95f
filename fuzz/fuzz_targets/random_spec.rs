#![no_main]
//! See `stockman_fuzz::check_random_spec` for the property checked.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stockman_fuzz::check_random_spec(data));
