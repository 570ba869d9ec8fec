//! An evaluation's weights declared once: `weights!` makes the table's struct, the list
//! `tetrarch tune` fits (with the mask of the weights it leaves fixed), its inverse, and the
//! Rust text of a fitted table, all from one list of fields in one order.

use super::{Game, Seat};

/// A weights table as `tetrarch tune` handles it: made by `weights!`.
pub trait WeightsTable: Clone {
    /// What picks the weights a list leaves fixed (`()` where every form is the same).
    type Form: Copy;
    /// The weights as one list, in the order of the fields, and which of them are not tuned in
    /// the list's form.
    fn list_for(&self, form: Self::Form) -> (Vec<i32>, Vec<bool>);
    /// `base` with its weights replaced by `list`'s, in the order of `list`; missing ones are 0.
    fn with_list(base: &Self, list: &[i32]) -> Self;
    /// The table as the Rust text of `pub const <const_name>`, for pasting after a tuning run.
    fn to_rust(&self, const_name: &str) -> String;
}

/// Whose results a game's positions are fitted to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// The first side's result, in a two-sided game.
    FirstSide,
    /// Every seat, each to its share of the others it finished ahead of (a tie counts half),
    /// from the game's places.
    Places,
}

/// A game whose evaluation reads its weights from one table: what `tetrarch tune` fits. Each
/// game declares it beside its evaluation.
pub trait Tunable: Game + Clone + Send + Sync {
    type Weights: WeightsTable + Sync;
    /// The table the engine plays with.
    const WEIGHTS: Self::Weights;
    /// Its constant's name in the game's eval.rs.
    const WEIGHTS_NAME: &'static str;
    /// The form of its list.
    const FORM: <Self::Weights as WeightsTable>::Form;
    const FIT: Fit;
    /// The evaluation from `seat`'s side with the weights `w`.
    fn eval_with(&self, seat: Seat, w: &Self::Weights) -> i32;

    fn weights() -> Self::Weights {
        Self::WEIGHTS
    }
    fn to_list(w: &Self::Weights) -> (Vec<i32>, Vec<bool>) {
        w.list_for(Self::FORM)
    }
    fn from_list(v: &[i32]) -> Self::Weights {
        <Self::Weights as WeightsTable>::with_list(&Self::WEIGHTS, v)
    }
    fn to_rust(w: &Self::Weights) -> String {
        w.to_rust(Self::WEIGHTS_NAME)
    }
}

/// `Tunable` for a two-sided game whose table is `WEIGHTS` and whose evaluation with a table,
/// from the first seat's side, is the method `$eval`.
macro_rules! two_sided_tunable {
    ($game:ty, $eval:ident) => {
        /// `tetrarch tune` fits `WEIGHTS` to two-sided results.
        impl $crate::rules::weights::Tunable for $game {
            type Weights = Weights;
            const WEIGHTS: Weights = WEIGHTS;
            const WEIGHTS_NAME: &'static str = "WEIGHTS";
            const FORM: () = ();
            const FIT: $crate::rules::weights::Fit = $crate::rules::weights::Fit::FirstSide;
            fn eval_with(&self, seat: $crate::rules::Seat, w: &Weights) -> i32 {
                let e = self.$eval(w);
                if seat == $crate::rules::Seat(0) { e } else { -e }
            }
        }
    };
}

pub(crate) use two_sided_tunable;

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
/// fixed than Double Mate's). It implements `WeightsTable`: `list_for(form)` (and `list()`
/// without a form), the weights and the fixed mask; `with_list(base, list)`, its inverse over
/// `base`; and `to_rust(name)`, the table as the Rust text of a `const`.
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

        impl $crate::rules::weights::WeightsTable for $name {
            type Form = $form_ty;

            #[allow(unused_variables)]
            fn list_for(&self, $form: $form_ty) -> (Vec<i32>, Vec<bool>) {
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

            fn with_list(base: &$name, list: &[i32]) -> $name {
                let mut it = list.iter().copied();
                let mut next = || it.next().unwrap_or(0);
                let mut w = base.clone();
                $( $crate::rules::weights::WeightField::take(&mut w.$field, &mut next); )*
                w
            }

            // The derived `Debug` is Rust's own syntax for the table; rustfmt lays it out.
            fn to_rust(&self, const_name: &str) -> String {
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
                $crate::rules::weights::WeightsTable::list_for(self, ())
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
