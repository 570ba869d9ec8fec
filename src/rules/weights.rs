//! An evaluation's weights declared once: `weights!` makes the table's struct, the list
//! `tetrarch tune` fits (with the mask of the weights it leaves fixed), its inverse, and the
//! Rust text of a fitted table, all from one list of fields in one order.

/// What a field of a weights table can be: a weight, or an array of them (of arrays...).
pub trait WeightField {
    /// Appends the field's weights, in order.
    fn put(&self, out: &mut Vec<i32>);
    /// Replaces the field's weights, in the same order, with what `next` gives.
    fn take(&mut self, next: &mut dyn FnMut() -> i32);
}

impl WeightField for i32 {
    fn put(&self, out: &mut Vec<i32>) {
        out.push(*self);
    }
    fn take(&mut self, next: &mut dyn FnMut() -> i32) {
        *self = next();
    }
}

impl<T: WeightField, const N: usize> WeightField for [T; N] {
    fn put(&self, out: &mut Vec<i32>) {
        self.iter().for_each(|x| x.put(out));
    }
    fn take(&mut self, next: &mut dyn FnMut() -> i32) {
        self.iter_mut().for_each(|x| x.take(next));
    }
}

/// Declares a weights table:
///
/// ```text
/// weights! {
///     /// The table's doc.
///     pub struct Weights for |ffa: bool| {
///         /// A field's doc.
///         pub value: [i32; 6] => fixed |i| i == KING,
///         pub tempo: i32,
///     }
/// }
/// ```
///
/// Each field may say which of its weights are not tuned: `fixed |i| ...`, where `i` counts the
/// field's weights in order (row by row for a table) and the expression may read the list's
/// form, where the table has one (`for |ffa: bool|`: all against all's list leaves other weights
/// fixed than Double Mate's). It makes `list_for(form)` (`list()` without a form), the weights
/// and the fixed mask; `with_list(base, list)`, its inverse over `base`; and `to_rust(name)`,
/// the table as the Rust text of a `const`.
macro_rules! weights {
    (
        $(#[$meta:meta])*
        pub struct $name:ident for |$form:ident: $form_ty:ty| {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident: $ty:ty $(=> fixed |$i:ident| $fixed:expr)?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            /// The weights as one list, in the order of the fields, and which of them are not
            /// tuned in the list's form.
            #[allow(unused_variables)]
            pub fn list_for(&self, $form: $form_ty) -> (Vec<i32>, Vec<bool>) {
                let mut v = Vec::new();
                let mut fixed = Vec::new();
                $(
                    let start = v.len();
                    $crate::rules::weights::WeightField::put(&self.$field, &mut v);
                    for k in 0..v.len() - start {
                        let _ = k;
                        fixed.push($crate::rules::weights::weights!(@fixed k $(, |$i| $fixed)?));
                    }
                )*
                (v, fixed)
            }

            /// `base` with its weights replaced by `list`'s, in the order of `list`; missing
            /// ones are 0.
            pub fn with_list(base: &$name, list: &[i32]) -> $name {
                let mut it = list.iter().copied();
                let mut next = || it.next().unwrap_or(0);
                let mut w = base.clone();
                $( $crate::rules::weights::WeightField::take(&mut w.$field, &mut next); )*
                w
            }

            /// The table as the Rust text of `pub const <const_name>`, for pasting after a
            /// tuning run (the derived `Debug` is Rust's own syntax for it; rustfmt lays it
            /// out).
            pub fn to_rust(&self, const_name: &str) -> String {
                format!("pub const {}: {} = {:?};\n", const_name, stringify!($name), self)
            }
        }
    };
    (
        $(#[$meta:meta])*
        pub struct $name:ident { $($fields:tt)* }
    ) => {
        $crate::rules::weights::weights! { $(#[$meta])* pub struct $name for |_form: ()| { $($fields)* } }

        impl $name {
            /// The weights as one list, in the order of the fields, and which of them are not
            /// tuned.
            pub fn list(&self) -> (Vec<i32>, Vec<bool>) {
                self.list_for(())
            }
        }
    };
    (@fixed $k:ident) => { false };
    (@fixed $k:ident, |$i:ident| $fixed:expr) => {{
        let $i = $k;
        $fixed
    }};
}

pub(crate) use weights;
