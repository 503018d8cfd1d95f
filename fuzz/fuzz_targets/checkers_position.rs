#![no_main]
//! See `stockman_fuzz::check_checkers_position` for the property checked.
libfuzzer_sys::fuzz_target!(|data: &[u8]| stockman_fuzz::check_checkers_position(data));
